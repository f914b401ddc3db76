package flinkx.planner;

import java.util.ArrayDeque;

/**
 * The ScriptPlanners of one policy, one per task planned at once: a lint plans a task on each core
 * (flinkx_build/planner/process.py sends -Dflinkx.planners), each task on a planner no other task is using. A task
 * still gets a TableEnvironment of its own (ScriptPlanner.plan), so which planner plans it never changes its verdict.
 */
final class PlannerPool {
    private static final int MAX = 8;
    final Policy policy;
    private final int size;
    private final ArrayDeque<ScriptPlanner> idle = new ArrayDeque<>();
    private int created;

    PlannerPool(Policy policy) throws Exception {
        this.policy = policy;
        this.size = Math.max(1, Math.min(Integer.getInteger("flinkx.planners", 1), MAX));
        idle.push(new ScriptPlanner(policy)); // the first at once: the policy's answer says the driver is ready
        created = 1;
    }

    /** A planner for one task, made when every one is busy and fewer than the pool's size exist; else waits. */
    ScriptPlanner take() throws Exception {
        synchronized (this) {
            while (idle.isEmpty() && created >= size) {
                wait();
            }
            if (!idle.isEmpty()) {
                return idle.pop();
            }
            created++;
        }
        try {
            return new ScriptPlanner(policy);
        } catch (Exception | Error e) {
            synchronized (this) {
                created--;
                notifyAll();
            }
            throw e;
        }
    }

    synchronized void give(ScriptPlanner planner) {
        idle.push(planner);
        notifyAll();
    }
}

package flinkx.planner;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Calls by name. The planner's own classes (Calcite nodes, the parser) live in the planner loader's
 * class loader and their signatures differ between Flink versions, so the driver reaches them this way:
 * one source serves every target.
 */
final class Reflect {
    private Reflect() {}

    static Object call(Object target, String name, Object... args) throws Exception {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.getName().equals(name) && method.getParameterCount() == args.length && fits(method.getParameterTypes(), args)) {
                    method.setAccessible(true);
                    return invoke(method, target, args);
                }
            }
        }
        for (Method method : target.getClass().getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == args.length && fits(method.getParameterTypes(), args)) {
                method.setAccessible(true);
                return invoke(method, target, args);
            }
        }
        throw new NoSuchMethodException(target.getClass().getName() + "." + name);
    }

    static Object construct(Class<?> type, Object... args) throws Exception {
        for (Constructor<?> constructor : type.getConstructors()) {
            if (constructor.getParameterCount() == args.length && fits(constructor.getParameterTypes(), args)) {
                try {
                    return constructor.newInstance(args);
                } catch (InvocationTargetException e) {
                    throw unwrap(e);
                }
            }
        }
        throw new NoSuchMethodException(type.getName() + ".<init>/" + args.length);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Exception {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
    }

    private static Exception unwrap(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception) {
            return (Exception) cause;
        }
        return new RuntimeException(cause);
    }

    private static boolean fits(Class<?>[] params, Object[] args) {
        for (int i = 0; i < params.length; i++) {
            if (args[i] == null) {
                continue;
            }
            Class<?> param = params[i].isPrimitive() ? boxed(params[i]) : params[i];
            if (!param.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> boxed(Class<?> primitive) {
        if (primitive == boolean.class) {
            return Boolean.class;
        }
        if (primitive == int.class) {
            return Integer.class;
        }
        if (primitive == long.class) {
            return Long.class;
        }
        return Object.class;
    }
}

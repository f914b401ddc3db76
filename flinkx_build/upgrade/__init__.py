"""`flinkx upgrade-check --to VERSION` and `flinkx fix --to VERSION`: what moving a workspace to
another Flink version breaks, task by task, and the fixes that are safe to make mechanically."""

"""The flinkx_rules rules, one module each (imported by `plugin.get_rules`)."""

"""flinkx_rules: a sqlfluff plugin with Dataphin/Flink SQL rules FX01-FX03.

FX01  reserved word used as an identifier must be backtick-quoted
FX02  WITH (...) option keys and values must be single-quoted strings
FX03  SET tbl.`watermark` value quoting by Dataphin version
"""

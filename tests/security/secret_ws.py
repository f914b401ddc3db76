"""A workspace with literal credentials in every place a task or table can hold one.

Each literal is a distinctive word, so a test can search any output for it.
"""
from __future__ import annotations

# literal -> where it is written
LITERALS = {
    "TablePw4711": "meta table with: password",
    "AccessKeyAK0815": "meta table with: accessKey",
    "AccessIdAI0042": "meta table with: accessId",
    "SetToken9931": "task SET ... token",
    "HintSecret2718": "task OPTIONS hint secret-key",
    "27182818": "meta table with: a number as passwd (FX106 quotes it in its hint)",
}

WORKSPACE = {
    "flinkx.yaml": "engine: flink\nsecrets: [db_password]\n",
    "projects/ods/tables/orders.yaml": """
        type: kafka
        columns:
          - {name: id, type: STRING}
          - {name: amount, type: INT}
        with:
          connector: kafka
          topic: orders
          format: json
          properties.bootstrap.servers: "k:9092"
          properties.sasl.jaas.config: "org.apache.kafka.common.security.plain.PlainLoginModule required username='u' password='${db_password}';"
          token: placeholder-overridden
          secret-key: placeholder-overridden
    """,
    "projects/ods/tables/odps_dim.yaml": """
        type: odps
        columns:
          - {name: id, type: STRING}
          - {name: label, type: STRING}
        with:
          connector: odps
          project: p
          tableName: dim
          accessId: "AccessIdAI0042"
          accessKey: "AccessKeyAK0815"
          passwd: 27182818
    """,
    "projects/dwd/tables/orders.yaml": """
        type: jdbc
        columns:
          - {name: id, type: STRING}
          - {name: amount, type: INT}
        primary_key: [id]
        with: {connector: jdbc, url: "jdbc:mysql://db:3306/dw", table-name: orders, username: etl, password: "TablePw4711", secretKey: "${db_password}"}
    """,
    "projects/dwd/tasks/copy_orders.sql": """
        SET ods.orders.token = 'SetToken9931';
        INSERT INTO orders
        SELECT o.id, o.amount FROM ods.orders /*+ OPTIONS('secret-key'='HintSecret2718') */ AS o;
    """,
}

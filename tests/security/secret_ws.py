"""A workspace with literal credentials in every place a task or table can hold one.

Each literal is a distinctive word, so a test can search any output for it.
Every option is one its connector has: the workspace is valid but for the
literal credentials themselves (which the FX480 check flags).
"""
from __future__ import annotations

# literal -> where it is written
LITERALS = {
    "TablePw4711": "meta table with: password (jdbc)",
    "AccessKeyAK0815": "meta table with: accessKey (odps)",
    "AccessIdAI0042": "meta table with: accessId (odps)",
    "SetKeystorePw9931": "task SET ... properties.ssl.keystore.password",
    "HintSecret2718": "task OPTIONS hint properties.ssl.key.password",
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
          properties.ssl.truststore.password: "${db_password}"
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
        with: {connector: jdbc, url: "jdbc:mysql://db:3306/dw", table-name: orders, username: etl, password: "TablePw4711"}
    """,
    "projects/dwd/tasks/copy_orders.sql": """
        SET ods.orders.properties.ssl.keystore.password = 'SetKeystorePw9931';
        INSERT INTO orders
        SELECT o.id, o.amount FROM ods.orders /*+ OPTIONS('properties.ssl.key.password'='HintSecret2718') */ AS o;
    """,
}

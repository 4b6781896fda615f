-- Statements that run against a node or a cluster (`streamroute` CLI). `convert` and `validate` skip
-- the ones without a resource form (UPLOAD, SHOW, DESCRIBE) with a warning (SR1009), and apply the
-- others (ALTER, OR REPLACE, IF NOT EXISTS, BEGIN/COMMIT/ROLLBACK, DROP) to the declarations they read.

-- Uploads are client-side and never inside a transaction; each creates a new immutable version.
UPLOAD RESOURCE order_protos VERSION './examples/full/protos';
UPLOAD RESOURCE pki VERSION './pki';

-- Inspect.
SHOW SCHEMAS;
SHOW WIRE SCHEMAS;
SHOW CODECS;
SHOW RESOURCES;
SHOW RELAYS;
SHOW VHOSTS;
SHOW ENDPOINTS;
SHOW CLIENTS;
SHOW INGESTORS;
SHOW JUNCTIONS;
SHOW CORRELATORS;
SHOW EMITTERS;
SHOW CREATE CODEC orders_pb;
SHOW CREATE INGESTOR syslog_udp_in;
SHOW CREATE CLIENT syslog_tls;
SHOW CREATE CLIENT kafka_main;
SHOW CREATE EMITTER syslog_out;
DESCRIBE INGESTOR syslog_tls_in;
DESCRIBE INGESTOR payments_from_kafka;
DESCRIBE EMITTER paid_orders_out;

-- Change the graph as one batch: validated whole, activated as one graph version.
BEGIN;
CREATE RELAY order_audit_archive SCHEMA order_audit UNBRANCHED;
CREATE JUNCTION audit_archive
  FROM order_audit
  TO order_audit_archive INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
CREATE IF NOT EXISTS RESOURCE archive_keys;
COMMIT;

-- ALTER takes the whole tail of CREATE again; CREATE OR REPLACE does the same and creates the object
-- when it does not exist yet. (On a node these usually change objects of earlier sessions; here they
-- change the ones above, so that this file is valid on its own.)
ALTER JUNCTION audit_archive
  FROM order_audit
  TO order_audit_archive
    INHERIT ALL, SET host = 'archive'
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE OR REPLACE RELAY order_audit_archive SCHEMA order_audit UNBRANCHED;
CREATE IF NOT EXISTS RESOURCE archive_keys;

-- A batch that is thrown away.
BEGIN;
CREATE RELAY scratch SCHEMA orders UNBRANCHED;
ROLLBACK;

-- Remove objects: DROP removes one declared before it (here the archive added above; on a node,
-- usually one of an earlier session). With IF EXISTS it is no error when there is none.
DROP JUNCTION audit_archive;
DROP RELAY order_audit_archive;
DROP EMITTER IF EXISTS old_out;
DROP INGESTOR IF EXISTS old_in;
DROP SYSLOG LISTENER INGESTOR IF EXISTS old_listener;
DROP HTTP ENDPOINT INGESTOR IF EXISTS old_http_in;
DROP TOPIC INGESTOR IF EXISTS old_topic_in;
DROP WIRE JSON SCHEMA IF EXISTS old_wire;
DROP CLIENT IF EXISTS old_client;

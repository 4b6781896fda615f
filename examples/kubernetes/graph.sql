-- A graph for a cluster: every node takes JSON orders on its HTTP port and syslog over TCP on port 5514,
-- and forwards each syslog line to a central collector. README.md "Run on Kubernetes" walks through it:
--
--   streamroute --kubeconfig ~/.kube/config -d shop -f examples/kubernetes/graph.sql
--   kubectl get httpingestors,syslogingestors,emitters -n shop
--   streamroute --kubeconfig ~/.kube/config subscribe -d shop tail orders
--
-- Replace the collector's address (syslog-collector.logging.svc.cluster.local:514) with yours; until it
-- answers, the emitter is Retrying and keeps its batch.

CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
CREATE RELAY orders SCHEMA orders UNBRANCHED;
-- Requests are routed by Host header: workloads send Host: orders.shop, or localhost on the node.
CREATE VHOST orders_host orders.shop, localhost;
CREATE ENDPOINT orders_ep ON orders_host PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in
  FROM orders_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE SCHEMA line (
  facility        U8,
  severity        U8,
  timestamp       DATETIME OPTIONAL,
  hostname        STRING OPTIONAL,
  app_name        STRING OPTIONAL,
  proc_id         STRING OPTIONAL,
  msg_id          STRING OPTIONAL,
  structured_data STRING OPTIONAL,
  message         STRING
);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
CREATE RELAY lines SCHEMA line UNBRANCHED;

-- 0.0.0.0: every node listens on its own address (the DaemonSet runs on the host network).
CREATE CLIENT node_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:5514' };
CREATE CLIENT collector TYPE SYSLOG CONFIG {
  'protocol' = 'tcp', 'addr' = 'syslog-collector.logging.svc.cluster.local:514'
};

CREATE SYSLOG LISTENER INGESTOR tcp_in
  FROM node_tcp MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE EMITTER to_collector
  FROM lines TO SYSLOG collector
  MODE NO_ACK RETRY POLICY BACKOFF 1s MAX 30s
  ENCODE USING syslog
  FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

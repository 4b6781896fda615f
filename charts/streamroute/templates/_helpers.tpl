{{/*
Names and labels shared by every template.
*/}}

{{/* The chart name, or nameOverride. */}}
{{- define "streamroute.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The full name: fullnameOverride, else the release name when it already contains the chart name
(`helm install streamroute …` gives "streamroute"), else "<release>-<chart>".
*/}}
{{- define "streamroute.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "streamroute.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "streamroute.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Names of the per-component objects. */}}
{{- define "streamroute.operator.name" -}}
{{- printf "%s-operator" (include "streamroute.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "streamroute.dataplane.name" -}}
{{- printf "%s-dataplane" (include "streamroute.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Selector labels of a component. Call with (dict "root" $ "component" "operator").
*/}}
{{- define "streamroute.selectorLabels" -}}
app.kubernetes.io/name: {{ include "streamroute.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
All labels of an object of a component. Call with (dict "root" $ "component" "operator").
*/}}
{{- define "streamroute.labels" -}}
{{ include "streamroute.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: streamroute
helm.sh/chart: {{ include "streamroute.chart" .root }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* repository:tag of an image value ({repository, tag, pullPolicy}); the tag defaults to appVersion. */}}
{{- define "streamroute.image" -}}
{{- printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag) -}}
{{- end -}}

{{/*
The container securityContext both workloads share: non-root (the distroless `nonroot` user,
65532), read-only root filesystem, no privilege escalation, every capability dropped, the
runtime's default seccomp profile. Call with (dict "add" (list "NET_BIND_SERVICE")) to add
capabilities back.
*/}}
{{- define "streamroute.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop:
    - ALL
  {{- with .add }}
  add:
    {{- toYaml . | nindent 4 }}
  {{- end }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The pod securityContext both workloads share. */}}
{{- define "streamroute.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
"true" when the data plane binds a port below 1024 (HTTP, HTTPS, admin, health or a syslog port), so it
needs NET_BIND_SERVICE; "" otherwise.
*/}}
{{- define "streamroute.dataplane.needsNetBindService" -}}
{{- $d := .Values.dataplane -}}
{{- $low := false -}}
{{- range $port := list $d.httpPort $d.httpsPort $d.adminPort $d.healthPort -}}
{{- if lt (int $port) 1024 -}}{{- $low = true -}}{{- end -}}
{{- end -}}
{{- range $d.syslogPorts -}}
{{- if lt (int .port) 1024 -}}{{- $low = true -}}{{- end -}}
{{- end -}}
{{- if $low -}}true{{- end -}}
{{- end -}}

{{/*
The plurals of the namespaced streamroute.io graph kinds (operator/api GRAPH_KINDS), one per line;
test/e2e/helm-chart.e2e.test.ts checks this list against operator/api.
*/}}
{{- define "streamroute.graphKinds" -}}
schemas
wireschemas
resources
codecs
relays
vhosts
vhostendpoints
syslogclients
kafkaclients
httpingestors
syslogingestors
topicingestors
junctions
correlators
emitters
{{- end -}}

{{/*
The scrape endpoint (a list of one) of a ServiceMonitor or PodMonitor: the health listener's /metrics (plain HTTP, no
record data). Call with (dict "component" "dataplane" "monitor" .Values.metrics.podMonitor).
*/}}
{{- define "streamroute.scrapeEndpoint" -}}
- port: health
  path: /metrics
  scheme: http
  {{- with .monitor.interval }}
  interval: {{ . }}
  {{- end }}
  {{- with .monitor.scrapeTimeout }}
  scrapeTimeout: {{ . }}
  {{- end }}
  {{- if eq .component "dataplane" }}
  # One data-plane pod per node: its series carry the node's name.
  relabelings:
    - action: replace
      sourceLabels: [__meta_kubernetes_pod_node_name]
      targetLabel: node
  {{- end }}
{{- end -}}

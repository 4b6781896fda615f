{{/*
The containers' args and env. Each workload renders its own list, then the user's extraArgs and extraEnv
after it; a flag or variable the chart sets itself cannot be given again (a second --admin-listen-addr
would move the unauthenticated admin API off loopback, a second --health-listen-addr would leave the
probes on a closed port): the chart's own list is parsed back (fromYamlArray) to know which. Values a
release made with chart 0.1.0 lack the new keys under `helm upgrade --reuse-values`: defaults here.
*/}}

{{- define "streamroute.operator.args" -}}
{{- $o := .Values.operator -}}
- operator
- --namespace
- $(POD_NAMESPACE)
- --leader-elect
- --keep-versions
- {{ $o.keepVersions | quote }}
- --health-listen-addr
- "0.0.0.0:{{ $o.healthPort }}"
{{- if .Values.live.enabled }}
- --live-listen-addr
- "0.0.0.0:{{ .Values.live.port }}"
- --live-tls-cert-file
- /etc/streamroute/live-tls/tls.crt
- --live-tls-key-file
- /etc/streamroute/live-tls/tls.key
- --internal-ca-file
- /etc/streamroute/internal-tls/ca.crt
- --internal-client-cert-file
- /etc/streamroute/internal-tls/tls.crt
- --internal-client-key-file
- /etc/streamroute/internal-tls/tls.key
{{- end }}
{{- with $o.watchNamespaces }}
- --watch-namespaces
- {{ join "," . | quote }}
{{- end }}
- --log-level
- {{ $o.logLevel | default "info" | quote }}
# JSON lines for the log pipeline, whatever the container runtime makes stderr look like.
- --log-format
- json
{{- end -}}

{{- define "streamroute.dataplane.args" -}}
{{- $d := .Values.dataplane -}}
- dataplane
- --node-name
- $(NODE_NAME)
- --operator-namespace
- $(POD_NAMESPACE)
- --http-listen-addr
- "0.0.0.0:{{ $d.httpPort }}"
- --https-listen-addr
- "0.0.0.0:{{ $d.httpsPort }}"
# The admin API (relay subscriptions, describe) has no authentication and carries records: it binds
# the pod's loopback (the node's on the host network), so nothing off the node reaches it
# (docs/kubernetes.md, Security).
- --admin-listen-addr
- "127.0.0.1:{{ $d.adminPort }}"
{{- if .Values.live.enabled }}
# The same read routes for the operator's live API only: mutual TLS, the operator's client
# certificate required (templates/internal-tls.yaml).
- --internal-listen-addr
- "0.0.0.0:{{ .Values.live.internalPort }}"
- --internal-tls-cert-file
- /etc/streamroute/internal-tls/tls.crt
- --internal-tls-key-file
- /etc/streamroute/internal-tls/tls.key
- --internal-client-ca-file
- /etc/streamroute/internal-tls/ca.crt
{{- end }}
# Probes and /metrics only, no record data: the kubelet and Prometheus reach it.
- --health-listen-addr
- "0.0.0.0:{{ $d.healthPort }}"
- --log-level
- {{ $d.logLevel | default "info" | quote }}
# JSON lines for the log pipeline, whatever the container runtime makes stderr look like.
- --log-format
- json
{{- end -}}

{{- define "streamroute.operator.env" -}}
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
{{- end -}}

{{- define "streamroute.dataplane.env" -}}
- name: NODE_NAME
  valueFrom:
    fieldRef:
      fieldPath: spec.nodeName
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
{{- end -}}

{{/*
A workload's args: the chart's, then <component>.extraArgs. Fails when an extra argument is a flag the
chart sets (`--flag`, `--flag=value` or `--no-flag`). Call with (dict "root" $ "component" "operator").
*/}}
{{- define "streamroute.args" -}}
{{- $own := include (printf "streamroute.%s.args" .component) .root -}}
{{- $owned := list -}}
{{- range fromYamlArray $own -}}
{{- if hasPrefix "--" (toString .) -}}{{- $owned = append $owned (trimPrefix "--" (toString .)) -}}{{- end -}}
{{- end -}}
{{- $extra := index .root.Values .component "extraArgs" | default list -}}
{{- range $i, $value := $extra -}}
{{- $arg := toString $value -}}
{{- $flag := regexReplaceAll "=.*$" (trimPrefix "--" $arg) "" -}}
{{- if and (hasPrefix "--" $arg) (or (has $flag $owned) (has (trimPrefix "no-" $flag) $owned)) -}}
{{- fail (printf "%s.extraArgs[%d] %q: the chart sets --%s itself, from its values (docs/kubernetes.md, Values); extraArgs only adds flags the chart does not set" $.component $i $arg (trimPrefix "no-" $flag)) -}}
{{- end -}}
{{- end -}}
{{- $own }}
{{- with $extra }}
# {{ $.component }}.extraArgs (numbers from --set become strings, as args must be)
{{- range . }}
- {{ toString . | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
A workload's env: the chart's variables, then <component>.extraEnv. Fails when an extra variable has
the name of one the chart sets. Call with (dict "root" $ "component" "operator").
*/}}
{{- define "streamroute.env" -}}
{{- $own := include (printf "streamroute.%s.env" .component) .root -}}
{{- $owned := list -}}
{{- range fromYamlArray $own -}}{{- $owned = append $owned .name -}}{{- end -}}
{{- $extra := index .root.Values .component "extraEnv" | default list -}}
{{- $seen := list -}}
{{- range $i, $variable := $extra -}}
{{- if has $variable.name $owned -}}
{{- fail (printf "%s.extraEnv[%d]: %s is set by the chart (%s); choose another name" $.component $i $variable.name (join ", " $owned)) -}}
{{- end -}}
{{- if has $variable.name $seen -}}
{{- fail (printf "%s.extraEnv[%d]: %s is already set by an earlier entry" $.component $i $variable.name) -}}
{{- end -}}
{{- $seen = append $seen $variable.name -}}
{{- end -}}
{{- $own }}
{{- with $extra }}
# {{ $.component }}.extraEnv
{{ toYaml . }}
{{- end }}
{{- end -}}

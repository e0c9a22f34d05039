{{- define "platform.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "platform.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "platform.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: scheduler
{{- end -}}

{{- define "platform.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "platform.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: platform
{{- end -}}

{{- define "platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "platform.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "platform.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "platform.databaseSecret" -}}
{{- default (printf "%s-database" (include "platform.fullname" .)) .Values.database.existingSecret -}}
{{- end -}}

{{- define "platform.bootstrapSecret" -}}
{{- default (printf "%s-bootstrap" (include "platform.fullname" .)) .Values.auth.existingBootstrapSecret -}}
{{- end -}}

{{- define "platform.agentTokensSecret" -}}
{{- default (printf "%s-agent-tokens" (include "platform.fullname" .)) .Values.auth.existingAgentTokensSecret -}}
{{- end -}}

{{- define "platform.hasAgentTokens" -}}
{{- if or .Values.auth.existingAgentTokensSecret .Values.auth.agentTokens -}}true{{- end -}}
{{- end -}}

{{- define "platform.hasBootstrapToken" -}}
{{- if or .Values.auth.existingBootstrapSecret .Values.auth.bootstrapAdminToken -}}true{{- end -}}
{{- end -}}

{{- define "platform.tlsSecret" -}}
{{- default (printf "%s-tls" (include "platform.fullname" .)) .Values.tls.existingSecret -}}
{{- end -}}

{{/* the key of the TLS Secret holding the issuer's PEM; empty when there is none to hand out */}}
{{- define "platform.tlsCaKey" -}}
{{- if .Values.tls.existingSecret -}}{{ .Values.tls.existingSecretCaKey }}{{- else -}}ca.crt{{- end -}}
{{- end -}}

{{/* the names the chart's certificate covers: the Service's, localhost and tls.subjectAlternativeNames */}}
{{- define "platform.tlsNames" -}}
{{- $fullname := include "platform.fullname" . -}}
{{- $ns := .Release.Namespace -}}
{{- $names := list $fullname (printf "%s.%s" $fullname $ns) (printf "%s.%s.svc" $fullname $ns) (printf "%s.%s.svc.cluster.local" $fullname $ns) "localhost" -}}
{{- $ips := list "127.0.0.1" "::1" -}}
{{- range .Values.tls.subjectAlternativeNames -}}
{{- if regexMatch "^[0-9.]+$|:" . -}}{{- $ips = append $ips . -}}{{- else -}}{{- $names = append $names . -}}{{- end -}}
{{- end -}}
{{- dict "dns" $names "ips" $ips | toJson -}}
{{- end -}}

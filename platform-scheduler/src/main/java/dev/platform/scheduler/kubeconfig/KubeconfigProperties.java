package dev.platform.scheduler.kubeconfig;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;

/**
 * @param server the server URL kubeconfigs name, for a scheduler reached through a TLS proxy or a load balancer on
 *               another address, e.g. {@code https://platform.example.com/k8s}; unset: the HTTPS connector on the
 *               host the request for the kubeconfig was sent to, {@code https://<host>:<platform.tls.port>/k8s}
 */
@ConfigurationProperties("platform.kubeconfig")
public record KubeconfigProperties(URI server) {

    public KubeconfigProperties {
        if (server != null && !"https".equals(server.getScheme())) {
            throw new IllegalArgumentException("platform.kubeconfig.server must be an https:// URL (kubectl sends its"
                    + " token over TLS only), not " + server);
        }
    }
}

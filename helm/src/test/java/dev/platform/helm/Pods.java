package dev.platform.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.util.Optional;

/** What every pod of both charts must be, whatever the values. */
final class Pods {

    private Pods() {
    }

    static V1Container container(V1Deployment deployment) {
        V1PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getContainers()).hasSize(1);
        return pod.getContainers().get(0);
    }

    /** Non-root, read-only root file system, no privilege escalation, no capabilities; probes and resources. */
    static void assertHardened(V1Deployment deployment) {
        V1PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        V1Container container = container(deployment);
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(container.getStartupProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsKey("memory");
        // a read-only root needs a writable /tmp (Tomcat's work files)
        assertThat(container.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    }

    static Optional<V1EnvVar> env(V1Deployment deployment, String name) {
        return container(deployment).getEnv().stream().filter(e -> e.getName().equals(name)).findFirst();
    }
}

package dev.platform.scheduler.kubeconfig;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.TeamRole;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.tls.HttpsEndpoint;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;

/** Where a kubeconfig points when the scheduler serves no HTTPS itself, and which namespace it names. */
class KubeconfigsTest {

    private static final Caller ALONE = new Caller("carol", null, List.of());

    private final ApiTokens tokens = mock(ApiTokens.class);

    @Test
    void withoutHttpsNorAServerSettingNoTokenIsMintedAndTheRefusalSaysWhatToSet() {
        Kubeconfigs kubeconfigs = new Kubeconfigs(tokens, HttpsEndpoint.off(), new KubeconfigProperties(null));

        assertThatThrownBy(() -> kubeconfigs.issue(ALONE, null, null, "localhost")).isInstanceOf(Refusal.class)
                .hasMessageContaining("platform.kubeconfig.server").hasMessageContaining("platform.tls.enabled")
                .satisfies(e -> assertThat(((Refusal) e).kind()).isEqualTo(Refusal.Kind.Conflict));
        then(tokens).should(never()).issue(any(), any(), any(), any());
    }

    @Test
    void theServerSettingNamesTheProxyInFrontOfTheScheduler() {
        given(tokens.issue(null, "kubeconfig", null, ALONE)).willReturn(new ApiTokens.Issued(null, "plt_secret"));
        Kubeconfigs kubeconfigs = new Kubeconfigs(tokens, HttpsEndpoint.off(),
                new KubeconfigProperties(URI.create("https://platform.example.com/k8s")));

        String kubeconfig = kubeconfigs.issue(ALONE, " ", null, "10.0.0.1");

        assertThat(kubeconfig).contains("server: https://platform.example.com/k8s", "token: plt_secret",
                "namespace: default").doesNotContain("certificate-authority-data");
    }

    @Test
    void theServerIsTheRequestsHostOnTheHttpsPort() {
        assertThat(Kubeconfigs.server("platform.example.com", 8443)).isEqualTo("https://platform.example.com:8443/k8s");
        assertThat(Kubeconfigs.server("::1", 8443)).isEqualTo("https://[::1]:8443/k8s");
        assertThat(Kubeconfigs.server("[::1]", 8443)).isEqualTo("https://[::1]:8443/k8s");
    }

    @Test
    void anHttpServerSettingIsRefusedAtStart() {
        assertThatThrownBy(() -> new KubeconfigProperties(URI.create("http://platform.example.com/k8s")))
                .hasMessageContaining("platform.kubeconfig.server");
    }

    @Test
    void theNamespaceIsTheFirstOfTheFirstTeam() {
        Caller member = new Caller("bob", null, List.of(
                new Caller.Membership("vision", TeamRole.Engineer, Set.of("vision-train", "vision-eval")),
                new Caller.Membership("nlp", TeamRole.Engineer, Set.of("a-nlp"))));

        assertThat(Kubeconfigs.namespace(member)).isEqualTo("vision-eval");
        assertThat(Kubeconfigs.namespace(ALONE)).isEqualTo("default");
    }
}

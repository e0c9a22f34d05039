package dev.platform.scheduler.security;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.identity.UserAccountRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;

import static org.springframework.http.HttpMethod.DELETE;
import static org.springframework.http.HttpMethod.GET;
import static org.springframework.http.HttpMethod.PATCH;
import static org.springframework.http.HttpMethod.PUT;
import static org.springframework.http.HttpMethod.POST;

/**
 * Who may call what. Two filter chains: agent endpoints take agent tokens bound to the cluster in the
 * path; everything else takes the platform's API tokens or an identity provider's JWTs as bearer
 * tokens, or a console session (form login, or OIDC login when a client is registered) with CSRF
 * protection. Each request rule below names the role it needs; lists are filtered by the caller's
 * teams where they are read. A path without a rule is closed. docs/security.md has the full matrix.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecuritySettings.class)
class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    /**
     * The content the console loads: its own scripts, styles and images, nothing from elsewhere, no inline
     * script. Style attributes are allowed (usage bars are sized with them); style elements are not.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:;"
            + " style-src 'self'; style-src-attr 'unsafe-inline'; script-src 'self'; connect-src 'self';"
            + " frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'";

    /**
     * No observation of Spring Security's own: with one, every filter of the chain, every authentication and every
     * authorization is wrapped in an observation on each request, a cost on the submission path that tells nothing
     * the HTTP server request metrics ({@code http_server_requests_seconds}, kept) and the 401/403 answers do not.
     */
    @Bean
    SecurityObservationSettings securityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    @Order(1)
    SecurityFilterChain agentEndpoints(HttpSecurity http, BearerTokens tokens, AccessRules rules,
                                       ProblemResponses problems) throws Exception {
        http.securityMatcher(AgentProtocol.BASE_PATH + "/**")
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(AgentProtocol.BASE_PATH + "/clusters/{cluster}/**").access(rules.agentOfCluster())
                        .anyRequest().denyAll())
                .oauth2ResourceServer(bearer -> bearer
                        .authenticationManagerResolver(request -> tokens.agents())
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(csrf -> csrf.disable())
                .requestCache(cache -> cache.disable())
                .anonymous(anonymous -> anonymous.disable());
        return http.build();
    }

    /**
     * The Kubernetes API: bearer tokens only (kubectl and the clients keep no session), no CSRF, 401 and 403 as
     * Kubernetes Status objects. Version and discovery documents need a caller as in a cluster without anonymous
     * access, but {@code /k8s/version}; what each caller may do is decided per request by the API's registry of
     * kinds, with the same rules as the REST API.
     */
    @Bean
    @Order(2)
    SecurityFilterChain kubernetesApiEndpoints(HttpSecurity http, BearerTokens tokens, KubernetesApiEntryPoint entryPoint)
            throws Exception {
        http.securityMatcher("/k8s/**")
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(GET, "/k8s/version").permitAll()
                        .anyRequest().authenticated())
                .oauth2ResourceServer(bearer -> bearer
                        .authenticationManagerResolver(request -> tokens.users())
                        .authenticationEntryPoint(entryPoint)
                        .accessDeniedHandler(entryPoint))
                .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint).accessDeniedHandler(entryPoint))
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(csrf -> csrf.disable())
                .requestCache(cache -> cache.disable())
                .anonymous(anonymous -> anonymous.disable());
        return http.build();
    }

    @Bean
    @Order(3)
    SecurityFilterChain platform(HttpSecurity http, BearerTokens tokens, AccessRules rules, ProblemResponses problems,
                                 UserAccountRepository users, PasswordEncoder encoder, LoginThrottle throttle,
                                 ObjectProvider<ClientRegistrationRepository> oidcClients) throws Exception {
        http.authorizeHttpRequests(requests -> authorize(requests, rules))
                .authenticationProvider(new PasswordLogins(users, encoder, throttle))
                .oauth2ResourceServer(bearer -> bearer
                        .authenticationManagerResolver(request -> tokens.users())
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .formLogin(form -> form
                        .loginPage("/login")
                        .failureHandler((request, response, e) -> response.sendRedirect(request.getContextPath()
                                + (e instanceof PasswordLogins.ThrottledException throttled
                                ? "/login?error=throttled&retry=" + Math.max(1, throttled.retryAfter().toSeconds())
                                : "/login?error=bad"))))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"))
                // The token in a cookie rather than the session: a page served for a bearer token opens none.
                .csrf(csrf -> csrf.csrfTokenRepository(new CookieCsrfTokenRepository())
                        // An API request without a session cookie carries no ambient authority to forge: it
                        // authenticates (bearer token) or is a 401, not a CSRF 403.
                        .ignoringRequestMatchers(request -> ProblemResponses.API.matches(request)
                                && request.getRequestedSessionId() == null))
                .exceptionHandling(e -> e
                        .defaultAuthenticationEntryPointFor(problems, ProblemResponses.API)
                        .accessDeniedHandler(problems))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
        if (oidcClients.getIfAvailable() != null) {
            http.oauth2Login(login -> login.loginPage("/login").failureHandler((request, response, e) -> {
                log.warn("a console login through the identity provider failed: {}", e.getMessage());
                response.sendRedirect(request.getContextPath() + "/login?error=provider");
            }));
        }
        return http.build();
    }

    private static void authorize(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests,
                                  AccessRules rules) {
        requests
                .requestMatchers(AccessRules.PUBLIC.toArray(String[]::new)).permitAll()
                .requestMatchers("/actuator/**").access(rules.opsOrAdmin())
                // Configuration: read by anyone signed in (lists filtered to the caller's teams), changed by Admins.
                .requestMatchers(POST, "/api/v1/manifests").access(rules.anyCaller())
                .requestMatchers(DELETE, "/api/v1/resourceflavors/*", "/api/v1/cohorts/*", "/api/v1/clusterqueues/*",
                        "/api/v1/priorityclasses/*", "/api/v1/workloadpriorityclasses/*", "/api/v1/namespaces/*",
                        "/api/v1/namespaces/*/localqueues/*", "/api/v1/teams/*").access(rules.admin())
                // Stopping and resuming a queue changes its stopPolicy, as applying its manifest would.
                .requestMatchers(POST, "/api/v1/clusterqueues/*/stop", "/api/v1/clusterqueues/*/resume",
                        "/api/v1/namespaces/*/localqueues/*/stop", "/api/v1/namespaces/*/localqueues/*/resume")
                .access(rules.admin())
                .requestMatchers(GET, "/api/v1/resourceflavors", "/api/v1/resourceflavors/*", "/api/v1/priorityclasses",
                        "/api/v1/priorityclasses/*", "/api/v1/workloadpriorityclasses", "/api/v1/workloadpriorityclasses/*",
                        "/api/v1/cohorts", "/api/v1/cohorts/*", "/api/v1/clusterqueues", "/api/v1/localqueues",
                        "/api/v1/namespaces", "/api/v1/teams", "/api/v1/me", "/api/v1/workloads").access(rules.anyCaller())
                .requestMatchers(GET, "/api/v1/clusterqueues/{clusterQueue}",
                        "/api/v1/clusterqueues/{clusterQueue}/pendingworkloads").access(rules.seesClusterQueue())
                .requestMatchers(GET, "/api/v1/teams/{team}").access(rules.memberOfTeam())
                // Workloads and LocalQueues: the team owning the namespace; Ops reads and cancels, Admin all.
                .requestMatchers(POST, "/api/v1/namespaces/{namespace}/workloads").access(rules.submitsInNamespace())
                .requestMatchers(DELETE, "/api/v1/namespaces/{namespace}/workloads/*").access(rules.cancelsInNamespace())
                // Stopping, resuming and changing the priority of a workload: who may cancel it.
                .requestMatchers(POST, "/api/v1/namespaces/{namespace}/workloads/*/stop",
                        "/api/v1/namespaces/{namespace}/workloads/*/resume").access(rules.cancelsInNamespace())
                .requestMatchers(PATCH, "/api/v1/namespaces/{namespace}/workloads/*").access(rules.cancelsInNamespace())
                // An admission check's state gates admission (approvals, budgets): its controller runs as an Admin.
                .requestMatchers(PUT, "/api/v1/namespaces/*/workloads/*/admissionchecks/*")
                .access(rules.admin())
                .requestMatchers(GET, "/api/v1/namespaces/{namespace}", "/api/v1/namespaces/{namespace}/**")
                .access(rules.readsNamespace())
                // Audits and infrastructure.
                // The preemption audit and every eviction's lost work: a lead reads the namespaces they lead.
                .requestMatchers(GET, "/api/v1/preemptions", "/api/v1/lostwork").access(rules.teamLead())
                // A lead reads the hotswaps of the workloads of their teams (the list is filtered).
                .requestMatchers(GET, "/api/v1/hotswaps").access(rules.teamLead())
                .requestMatchers(GET, "/api/v1/clusters", "/api/v1/clusters/*",
                        "/api/v1/clusters/*/nodepools").access(rules.opsOrAdmin())
                // Held requeues of a disrupted cluster go ahead when an Ops or Admin user says so.
                .requestMatchers(POST, "/api/v1/clusters/*/disruption/confirm").access(rules.opsOrAdmin())
                // Identity: Admins manage users and agent tokens; everyone their own API tokens.
                .requestMatchers("/api/v1/clusters/*/agent-tokens", "/api/v1/clusters/*/agent-tokens/*",
                        "/api/v1/users", "/api/v1/users/*").access(rules.admin())
                .requestMatchers("/api/v1/tokens", "/api/v1/tokens/*").access(rules.anyCaller())
                // A kubeconfig carries a new token of the caller's own; the authority it trusts is public, as the
                // certificate the HTTPS port presents to anyone is.
                .requestMatchers(POST, "/api/v1/kubeconfig").access(rules.anyCaller())
                .requestMatchers(GET, "/api/v1/kubeconfig/ca.crt").permitAll()
                .requestMatchers(GET, "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
                .access(rules.anyCaller())
                .requestMatchers("/api/**").denyAll()
                // Kueue's visibility API: as the platform's own pending-workloads endpoints.
                .requestMatchers(GET, "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/{clusterQueue}/pendingworkloads")
                .access(rules.seesClusterQueue())
                .requestMatchers(GET, "/apis/visibility.kueue.x-k8s.io/v1beta2/namespaces/{namespace}/localqueues/*/pendingworkloads")
                .access(rules.readsNamespace())
                .requestMatchers("/apis/**").denyAll()
                // Console pages, filtered like the API they mirror.
                .requestMatchers(GET, "/", "/queues", "/workloads", "/console/events").access(rules.anyCaller())
                .requestMatchers(GET, "/queues/{clusterQueue}").access(rules.seesClusterQueue())
                .requestMatchers(GET, "/teams", "/preemptions", "/hotswaps").access(rules.teamLead())
                .requestMatchers(GET, "/nodepools", "/configuration").access(rules.opsOrAdmin())
                .requestMatchers(GET, "/namespaces/{namespace}/workloads/*").access(rules.readsNamespace())
                .requestMatchers(POST, "/namespaces/{namespace}/workloads/*/cancel", "/namespaces/{namespace}/workloads/*/stop",
                        "/namespaces/{namespace}/workloads/*/resume").access(rules.cancelsInNamespace())
                .requestMatchers(POST, "/queues/*/stop", "/queues/*/resume", "/namespaces/*/localqueues/*/stop",
                        "/namespaces/*/localqueues/*/resume").access(rules.admin())
                // Every signed-in user's own API tokens (the page shows and revokes only the caller's).
                .requestMatchers(GET, "/tokens").access(rules.anyCaller())
                .requestMatchers(POST, "/tokens", "/tokens/kubeconfig", "/tokens/*/revoke").access(rules.anyCaller())
                .requestMatchers(POST, "/logout").authenticated()
                .anyRequest().denyAll();
    }
}

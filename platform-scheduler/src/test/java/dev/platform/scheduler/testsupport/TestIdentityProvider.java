package dev.platform.scheduler.testsupport;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * An OpenID Connect provider in the test JVM, with a key pair made at start: it serves its JWK set,
 * signs access tokens for bearer calls, and runs the authorization-code flow of a console login for
 * whichever user {@link #logInNext} names (no login page: it answers the authorization request at once).
 * No outside identity provider is involved.
 */
public final class TestIdentityProvider {

    public static final String CLIENT_ID = "platform-console";
    public static final String CLIENT_SECRET = "test-client-secret";
    public static final String REGISTRATION = "test-idp";

    private static final TestIdentityProvider INSTANCE = new TestIdentityProvider();

    /** The user the next authorization request logs in, and their groups. */
    private record Login(String user, List<String> groups) {
    }

    private record Grant(Login login, String nonce) {
    }

    private final RSAKey key;
    private final HttpServer server;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private volatile Login next;

    private TestIdentityProvider() {
        try {
            key = new RSAKeyGenerator(2048).keyID("test-key").generate();
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (JOSEException | IOException e) {
            throw new IllegalStateException("could not start the test identity provider", e);
        }
        server.createContext("/jwks", exchange -> respond(exchange, 200, "application/json",
                new JWKSet(key.toPublicJWK()).toString()));
        server.createContext("/authorize", this::authorize);
        server.createContext("/token", this::token);
        server.setExecutor(null);
        server.start();
    }

    public static TestIdentityProvider get() {
        return INSTANCE;
    }

    public String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The settings that make a scheduler trust this provider's JWTs and offer its console login. */
    public List<String> settings() {
        String registration = "spring.security.oauth2.client.registration." + REGISTRATION + ".";
        String provider = "spring.security.oauth2.client.provider." + REGISTRATION + ".";
        return List.of(
                "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=" + issuer() + "/jwks",
                registration + "client-id=" + CLIENT_ID,
                registration + "client-secret=" + CLIENT_SECRET,
                registration + "client-name=Test IdP",
                registration + "authorization-grant-type=authorization_code",
                registration + "redirect-uri={baseUrl}/login/oauth2/code/{registrationId}",
                registration + "scope=openid,profile",
                provider + "authorization-uri=" + issuer() + "/authorize",
                provider + "token-uri=" + issuer() + "/token",
                provider + "jwk-set-uri=" + issuer() + "/jwks",
                provider + "user-name-attribute=sub",
                "platform.security.oidc.groups.vision-leads=vision:TeamLead",
                "platform.security.oidc.groups.sre=Ops");
    }

    /** A bearer token for {@code user} in {@code groups}, valid for {@code lifetime} (negative: expired). */
    public String accessToken(String user, Duration lifetime, String... groups) {
        return sign(claims(user, Arrays.asList(groups), lifetime).audience("platform").build());
    }

    /** A token signed by a key this provider does not publish: a forgery. */
    public static String forgedToken(String user) {
        try {
            RSAKey other = new RSAKeyGenerator(2048).keyID("test-key").generate();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("test-key").build(),
                    new JWTClaimsSet.Builder().subject(user).claim("preferred_username", user)
                            .expirationTime(Date.from(Instant.now().plusSeconds(300))).build());
            jwt.sign(new RSASSASigner(other));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The user the next console login through this provider logs in as. */
    public void logInNext(String user, String... groups) {
        next = new Login(user, Arrays.asList(groups));
    }

    private JWTClaimsSet.Builder claims(String user, List<String> groups, Duration lifetime) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer()).subject(user).claim("preferred_username", user)
                .claim("groups", groups).issueTime(Date.from(now.minusSeconds(5)))
                .expirationTime(Date.from(now.plus(lifetime)));
    }

    private String sign(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The authorization endpoint: logs in the announced user at once and sends the browser back with a code. */
    private void authorize(HttpExchange exchange) throws IOException {
        Map<String, String> query = parse(exchange.getRequestURI().getRawQuery());
        Login login = next;
        if (login == null || !CLIENT_ID.equals(query.get("client_id"))) {
            respond(exchange, 400, "text/plain", "no login announced, or unknown client");
            return;
        }
        String code = UUID.randomUUID().toString();
        codes.put(code, new Grant(login, query.get("nonce")));
        exchange.getResponseHeaders().add("Location", query.get("redirect_uri") + "?code=" + code + "&state="
                + URLEncoder.encode(query.get("state"), StandardCharsets.UTF_8));
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    /** The token endpoint: a code for an ID token (with the nonce) and an access token. */
    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Grant grant = codes.remove(form.getOrDefault("code", ""));
        if (grant == null) {
            respond(exchange, 400, "application/json", "{\"error\": \"invalid_grant\"}");
            return;
        }
        JWTClaimsSet.Builder idToken = claims(grant.login().user(), grant.login().groups(), Duration.ofMinutes(5))
                .audience(CLIENT_ID);
        if (grant.nonce() != null) {
            idToken.claim("nonce", grant.nonce());
        }
        String body = "{\"access_token\": \"" + accessToken(grant.login().user(), Duration.ofMinutes(5))
                + "\", \"token_type\": \"Bearer\", \"expires_in\": 300, \"scope\": \"openid profile\", \"id_token\": \""
                + sign(idToken.build()) + "\"}";
        respond(exchange, 200, "application/json", body);
    }

    private static Map<String, String> parse(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return Map.of();
        }
        return Arrays.stream(encoded.split("&")).map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(p -> URLDecoder.decode(p[0], StandardCharsets.UTF_8),
                        p -> p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "", (a, b) -> b,
                        HashMap::new));
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) {
        try {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

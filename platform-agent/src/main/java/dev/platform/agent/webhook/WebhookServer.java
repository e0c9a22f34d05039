package dev.platform.agent.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook's HTTPS listener (the API server calls webhooks over TLS only), apart from the agent's HTTP port:
 * it answers POSTs of AdmissionReviews at {@link AdmissionWebhook}'s paths and nothing else. The certificate it
 * presents comes from {@link ServingKeys}, so a rotation takes effect at the next handshake.
 */
public final class WebhookServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);
    /** Two objects of the API server's largest (1.5 MiB each) and the review around them. */
    private static final int MAX_BODY = 4 * 1024 * 1024;

    private final HttpsServer server;
    private final ExecutorService workers;
    private final AdmissionWebhook webhook;

    public WebhookServer(InetSocketAddress address, AdmissionWebhook webhook, ServingKeys keys) {
        this.webhook = webhook;
        try {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(new KeyManager[] {keys}, null, null);
            server = HttpsServer.create(address, 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
        } catch (IOException e) {
            throw new UncheckedIOException("the admission webhook cannot listen on " + address + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS for the admission webhook: " + e.getMessage(), e);
        }
        workers = Executors.newFixedThreadPool(4, r -> {
            Thread thread = new Thread(r, "admission-webhook");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(workers);
        server.createContext("/", this::handle);
    }

    public void start() {
        server.start();
        log.info("admission webhook listening on {} (HTTPS)", server.getAddress());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Optional<AdmissionWebhook.Endpoint> endpoint = AdmissionWebhook.endpoint(exchange.getRequestURI().getPath());
            if (endpoint.isEmpty()) {
                send(exchange, 404, "no admission webhook at " + exchange.getRequestURI().getPath());
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().add("Allow", "POST");
                send(exchange, 405, "AdmissionReviews are POSTed");
                return;
            }
            byte[] body = read(exchange.getRequestBody());
            if (body == null) {
                send(exchange, 413, "an AdmissionReview is at most " + MAX_BODY + " bytes");
                return;
            }
            byte[] answer;
            try {
                answer = webhook.review(endpoint.get(), body);
            } catch (IllegalArgumentException | tools.jackson.core.JacksonException e) {
                send(exchange, 400, e.getMessage());
                return;
            } catch (RuntimeException e) {
                // the API server applies the webhook's failurePolicy to this answer
                log.warn("AdmissionReview at {} failed", endpoint.get().path(), e);
                send(exchange, 500, e.toString());
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    private static byte[] read(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        return body.length > MAX_BODY ? null : body;
    }

    private static void send(HttpExchange exchange, int status, String message) throws IOException {
        byte[] bytes = (message + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

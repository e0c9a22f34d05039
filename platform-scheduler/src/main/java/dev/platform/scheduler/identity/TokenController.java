package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * API tokens: a user creates tokens for themself (an Admin for anyone); the secret is in the 201
 * response only. Revocation takes effect on the next request.
 */
@RestController
@RequestMapping(path = "/api/v1/tokens", produces = "application/json")
public class TokenController {

    private final ApiTokens tokens;

    TokenController(ApiTokens tokens) {
        this.tokens = tokens;
    }

    /** Every field optional: the caller themself, 90 days, no description. */
    public record NewToken(String user, Long expiresInSeconds, String description) {
    }

    /** The one response that carries the secret. */
    public record CreatedToken(long id, String token, String user, String description, Instant createdAt,
                               Instant expiresAt) {
    }

    /** A token as lists show it: never the secret, nor its hash. */
    public record TokenView(long id, String user, String description, Instant createdAt, String createdBy,
                            Instant expiresAt, Instant revokedAt, String revokedBy) {
        static TokenView of(ApiToken t) {
            return new TokenView(t.id(), t.userName(), t.description(), t.createdAt(), t.createdBy(), t.expiresAt(),
                    t.revokedAt(), t.revokedBy());
        }
    }

    public record TokenList(List<TokenView> items) {
    }

    @PostMapping
    public ResponseEntity<CreatedToken> create(@RequestBody(required = false) NewToken request, Caller caller) {
        NewToken body = request == null ? new NewToken(null, null, null) : request;
        ApiTokens.Issued issued = tokens.issue(body.user(), body.description(),
                body.expiresInSeconds() == null ? null : Duration.ofSeconds(body.expiresInSeconds()), caller);
        ApiToken t = issued.token();
        return ResponseEntity.status(HttpStatus.CREATED).body(new CreatedToken(t.id(), issued.secret(), t.userName(),
                t.description(), t.createdAt(), t.expiresAt()));
    }

    @GetMapping
    public TokenList list(@RequestParam(required = false) String user, Caller caller) {
        return new TokenList(tokens.list(user, caller).stream().map(TokenView::of).toList());
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void revoke(@PathVariable long id, Caller caller) {
        tokens.revoke(id, caller);
    }
}

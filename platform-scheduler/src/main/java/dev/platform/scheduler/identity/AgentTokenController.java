package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.web.ClusterNames;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Agent tokens of one cluster, for Admins: issue (the secret is in the 201 response only), list,
 * revoke. A cluster may have several at once, which is how a token is rotated without downtime.
 */
@RestController
@RequestMapping(path = "/api/v1/clusters/{cluster}/agent-tokens", produces = "application/json")
public class AgentTokenController {

    private final AgentTokens tokens;

    AgentTokenController(AgentTokens tokens) {
        this.tokens = tokens;
    }

    /** Both optional: no description, no expiry. */
    public record NewAgentToken(Long expiresInSeconds, String description) {
    }

    public record CreatedAgentToken(long id, String cluster, String token, String description, Instant createdAt,
                                    Instant expiresAt) {
    }

    public record AgentTokenView(long id, String cluster, String description, Instant createdAt, String createdBy,
                                 Instant expiresAt, Instant revokedAt, String revokedBy) {
        static AgentTokenView of(AgentToken t) {
            return new AgentTokenView(t.id(), t.cluster(), t.description(), t.createdAt(), t.createdBy(),
                    t.expiresAt(), t.revokedAt(), t.revokedBy());
        }
    }

    public record AgentTokenList(List<AgentTokenView> items) {
    }

    @PostMapping
    public ResponseEntity<CreatedAgentToken> create(@PathVariable String cluster,
                                                    @RequestBody(required = false) NewAgentToken request,
                                                    Caller caller) {
        ClusterNames.require(cluster);
        NewAgentToken body = request == null ? new NewAgentToken(null, null) : request;
        AgentTokens.Issued issued = tokens.issue(cluster, body.description(),
                body.expiresInSeconds() == null ? null : Duration.ofSeconds(body.expiresInSeconds()), caller);
        AgentToken t = issued.token();
        return ResponseEntity.status(HttpStatus.CREATED).body(new CreatedAgentToken(t.id(), t.cluster(),
                issued.secret(), t.description(), t.createdAt(), t.expiresAt()));
    }

    @GetMapping
    public AgentTokenList list(@PathVariable String cluster) {
        ClusterNames.require(cluster);
        return new AgentTokenList(tokens.list(cluster).stream().map(AgentTokenView::of).toList());
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void revoke(@PathVariable String cluster, @PathVariable long id, Caller caller) {
        ClusterNames.require(cluster);
        tokens.revoke(cluster, id, caller);
    }
}

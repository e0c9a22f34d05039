package dev.platform.scheduler.identity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;

/** A user's API token: it acts as that user, with the user's roles at the time of each request. */
@Entity
@Table(name = "api_token")
public class ApiToken extends IssuedToken {

    @Column(name = "user_name", nullable = false, updatable = false)
    private String userName;

    protected ApiToken() {
    }

    ApiToken(byte[] tokenHash, String userName, String description, Instant createdAt, String createdBy,
             Instant expiresAt) {
        super(tokenHash, description, createdAt, createdBy, expiresAt);
        this.userName = userName;
    }

    public String userName() {
        return userName;
    }
}

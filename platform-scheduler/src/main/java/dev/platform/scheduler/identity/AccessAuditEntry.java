package dev.platform.scheduler.identity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One line of the access audit: who created or removed an identity or a token, or cancelled a workload. */
@Entity
@Table(name = "access_audit")
public class AccessAuditEntry {

    /** What happened; stored by name. */
    public enum Action {
        UserCreated, UserDeleted, PasswordChanged, TokenCreated, TokenRevoked, AgentTokenCreated, AgentTokenRevoked, WorkloadCancelled
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private Instant at;

    @Column(nullable = false)
    private String actor;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private Action action;

    @Column(nullable = false)
    private String subject;

    @Column(nullable = false)
    private String detail;

    protected AccessAuditEntry() {
    }

    AccessAuditEntry(Instant at, String actor, Action action, String subject, String detail) {
        this.at = at;
        this.actor = actor;
        this.action = action;
        this.subject = subject;
        this.detail = detail;
    }

    public Long id() {
        return id;
    }

    public Instant at() {
        return at;
    }

    public String actor() {
        return actor;
    }

    public Action action() {
        return action;
    }

    public String subject() {
        return subject;
    }

    public String detail() {
        return detail;
    }
}

package dev.platform.scheduler.identity;

import dev.platform.api.identity.TeamRole;
import dev.platform.api.manifest.TeamManifest;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A team as stored: the Team manifest's namespaces, members and allowed priority classes. */
@Entity
@Table(name = "team")
public class Team {

    @Id
    private String name;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @ElementCollection
    @CollectionTable(name = "team_namespace", joinColumns = @JoinColumn(name = "team"))
    @Column(name = "namespace")
    private Set<String> namespaces = new HashSet<>();

    @ElementCollection
    @CollectionTable(name = "team_member", joinColumns = @JoinColumn(name = "team"))
    private Set<Member> members = new HashSet<>();

    /** Null when the team's workloads may name any priority class. */
    @Column(name = "allowed_priority_classes")
    private String[] allowedPriorityClasses;

    protected Team() {
    }

    Team(String name, Instant now) {
        this.name = name;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /** One member row: a user and their role in this team. */
    @Embeddable
    public record Member(@Column(name = "user_name") String userName,
                         @Enumerated(EnumType.STRING) @Column(name = "role") TeamRole role) {
    }

    public String name() {
        return name;
    }

    public Set<String> namespaces() {
        return Set.copyOf(namespaces);
    }

    public Set<Member> members() {
        return Set.copyOf(members);
    }

    /** Takes the manifest's namespaces and members in place of the stored ones. */
    void apply(TeamManifest manifest, Instant now) {
        namespaces.clear();
        namespaces.addAll(manifest.namespaces());
        members.clear();
        manifest.members().forEach(m -> members.add(new Member(m.user(), m.role())));
        allowedPriorityClasses = manifest.allowedPriorityClasses() == null ? null
                : manifest.allowedPriorityClasses().toArray(String[]::new);
        updatedAt = now;
    }

    TeamManifest toManifest() {
        return new TeamManifest(name, namespaces.stream().toList(),
                members.stream().map(m -> new TeamManifest.Member(m.userName(), m.role())).toList(),
                allowedPriorityClasses == null ? null : List.of(allowedPriorityClasses));
    }
}

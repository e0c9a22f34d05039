package dev.platform.scheduler.identity;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.sql.Array;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The priority classes the workloads of a namespace may name, as its team's Admin-set
 * {@code spec.allowedPriorityClasses} says; read on the submission path, so with one statement.
 */
@Component
public class TeamPriorityClasses {

    private final JdbcClient jdbc;

    TeamPriorityClasses(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A team that restricts the priority classes of its namespaces' workloads to {@code allowed} (sorted). */
    public record Restriction(String team, List<String> allowed) {

        public Restriction {
            allowed = List.copyOf(allowed);
        }

        public boolean allows(String priorityClass) {
            return allowed.contains(priorityClass);
        }
    }

    /** The restriction on {@code namespace}'s workloads; empty when no team owns it or its team allows any class. */
    public Optional<Restriction> of(String namespace) {
        return jdbc.sql("""
                        SELECT t.name, t.allowed_priority_classes FROM team t
                        JOIN team_namespace n ON n.team = t.name
                        WHERE n.namespace = ? AND t.allowed_priority_classes IS NOT NULL""")
                .param(namespace)
                .query((rs, i) -> new Restriction(rs.getString(1), sorted(rs.getArray(2))))
                .optional();
    }

    private static List<String> sorted(Array array) throws SQLException {
        return List.of((String[]) array.getArray()).stream().sorted().toList();
    }
}

package dev.platform.scheduler.identity;

import dev.platform.api.identity.TeamRole;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import java.util.Collection;
import java.util.List;

public interface TeamRepository extends JpaRepository<Team, String> {

    /** A user's memberships as rows of (team, role, namespace), in one query; namespace null for a team without one. */
    @Query("""
            SELECT new dev.platform.scheduler.identity.MembershipRow(t.name, m.role, n)
            FROM Team t JOIN t.members m LEFT JOIN t.namespaces n
            WHERE m.userName IN :userNames""")
    List<MembershipRow> membershipsOf(Collection<String> userNames);

    /** Teams with their namespaces, for mapping identity-provider groups to memberships. */
    @Query("""
            SELECT new dev.platform.scheduler.identity.MembershipRow(t.name, null, n)
            FROM Team t LEFT JOIN t.namespaces n WHERE t.name IN :names""")
    List<MembershipRow> namespacesOf(Collection<String> names);

    @Query("SELECT DISTINCT t FROM Team t LEFT JOIN FETCH t.namespaces LEFT JOIN FETCH t.members WHERE t.name IN :names")
    List<Team> findAllByNameIn(Collection<String> names);

    @Query("SELECT DISTINCT t FROM Team t LEFT JOIN FETCH t.namespaces LEFT JOIN FETCH t.members ORDER BY t.name")
    List<Team> findAllOrdered();

    /** The team owning each of the given namespaces, as (team, null, namespace) rows. */
    @Query("""
            SELECT new dev.platform.scheduler.identity.MembershipRow(t.name, null, n)
            FROM Team t JOIN t.namespaces n WHERE n IN :namespaces""")
    List<MembershipRow> ownersOf(Collection<String> namespaces);
}

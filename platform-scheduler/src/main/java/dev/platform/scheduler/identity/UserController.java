package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
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
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Instant;
import java.util.List;

/** Users, for Admins: create (with a password, or none for identity-provider logins), list, read, delete. */
@RestController
@RequestMapping(path = "/api/v1/users", produces = "application/json")
public class UserController {

    private final Users users;

    UserController(Users users) {
        this.users = users;
    }

    /** {@code password} null for a user who logs in through the identity provider only. */
    public record NewUser(String name, String password, ClusterRole clusterRole) {
    }

    /** A user as the API shows it: never the password hash. */
    public record UserView(String name, ClusterRole clusterRole, boolean hasPassword, Instant createdAt,
                           String createdBy) {
        static UserView of(UserAccount user) {
            return new UserView(user.name(), user.clusterRole(), user.passwordHash() != null, user.createdAt(),
                    user.createdBy());
        }
    }

    public record UserList(List<UserView> items) {
    }

    @PostMapping
    public ResponseEntity<UserView> create(@RequestBody NewUser user, Caller caller, UriComponentsBuilder uri) {
        UserAccount created = users.create(user.name(), user.password(), user.clusterRole(), caller);
        return ResponseEntity.created(uri.path("/api/v1/users/{name}").buildAndExpand(created.name()).toUri())
                .body(UserView.of(created));
    }

    @GetMapping
    public UserList list() {
        return new UserList(users.list().stream().map(UserView::of).toList());
    }

    @GetMapping("/{name}")
    public UserView get(@PathVariable String name) {
        return UserView.of(users.find(name));
    }

    @DeleteMapping("/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void delete(@PathVariable String name, Caller caller) {
        users.delete(name, caller);
    }
}

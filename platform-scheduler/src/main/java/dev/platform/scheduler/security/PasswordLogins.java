package dev.platform.scheduler.security;

import dev.platform.scheduler.identity.UserAccount;
import dev.platform.scheduler.identity.UserAccountRepository;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

import java.time.Duration;

/**
 * Console logins with a user name and password, checked by Spring Security's DAO provider against the
 * users' stored hashes, behind the login throttle. A user without a password (one who logs in through
 * the identity provider) cannot log in this way.
 */
final class PasswordLogins implements AuthenticationProvider {

    private final DaoAuthenticationProvider passwords;
    private final LoginThrottle throttle;

    PasswordLogins(UserAccountRepository users, PasswordEncoder encoder, LoginThrottle throttle) {
        UserDetailsService details = name -> users.findById(name)
                .filter(user -> user.passwordHash() != null)
                .map(PasswordLogins::details)
                .orElseThrow(() -> new UsernameNotFoundException("no password login for " + name));
        this.passwords = new DaoAuthenticationProvider(details);
        this.passwords.setPasswordEncoder(encoder);
        this.throttle = throttle;
    }

    @Override
    public Authentication authenticate(Authentication authentication) throws AuthenticationException {
        String name = authentication.getName();
        String address = authentication.getDetails() instanceof WebAuthenticationDetails web
                ? web.getRemoteAddress() : "unknown";
        Duration locked = throttle.lockedFor(name, address).orElse(null);
        if (locked != null) {
            throw new ThrottledException(locked);
        }
        try {
            Authentication result = passwords.authenticate(authentication);
            throttle.succeeded(name, address);
            return result;
        } catch (BadCredentialsException e) {
            throttle.failed(name, address);
            throw e;
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }

    private static User details(UserAccount user) {
        return new User(user.name(), user.passwordHash(), AuthorityUtils.NO_AUTHORITIES);
    }

    /** Refused without checking the password, for how much longer. */
    static final class ThrottledException extends LockedException {

        private final Duration retryAfter;

        ThrottledException(Duration retryAfter) {
            super("too many failed logins; try again in " + Math.max(1, retryAfter.toSeconds()) + " s");
            this.retryAfter = retryAfter;
        }

        Duration retryAfter() {
            return retryAfter;
        }
    }
}

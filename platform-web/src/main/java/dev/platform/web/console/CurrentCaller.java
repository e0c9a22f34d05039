package dev.platform.web.console;

import dev.platform.api.identity.Caller;

import java.util.Optional;

/**
 * A port: the caller of the request being served, as the application's security resolved it; empty
 * on the pages everyone may open (the login page, the error pages).
 */
public interface CurrentCaller {

    Optional<Caller> get();
}

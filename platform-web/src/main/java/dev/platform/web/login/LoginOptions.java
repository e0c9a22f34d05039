package dev.platform.web.login;

import java.util.List;

/** A port: the identity providers the console offers a login through, besides the password form. */
public interface LoginOptions {

    /** A provider's button: its name and the path that starts its login. */
    record Provider(String name, String path) {
    }

    List<Provider> identityProviders();
}

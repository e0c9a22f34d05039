package dev.platform.scheduler.security;

import dev.platform.web.login.LoginOptions;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/**
 * The OIDC clients registered through {@code spring.security.oauth2.client.registration.*}, as login
 * buttons; none when nothing is registered.
 */
@Component
class IdentityProviderLogins implements LoginOptions {

    private final List<Provider> providers = new ArrayList<>();

    IdentityProviderLogins(ObjectProvider<ClientRegistrationRepository> registrations) {
        if (registrations.getIfAvailable() instanceof Iterable<?> all) {
            for (Object registration : all) {
                ClientRegistration client = (ClientRegistration) registration;
                providers.add(new Provider(client.getClientName(),
                        "/oauth2/authorization/" + client.getRegistrationId()));
            }
        }
    }

    @Override
    public List<Provider> identityProviders() {
        return List.copyOf(providers);
    }
}

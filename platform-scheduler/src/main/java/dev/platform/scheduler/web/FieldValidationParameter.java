package dev.platform.scheduler.web;

import dev.platform.api.manifest.FieldValidation;
import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

import java.util.Arrays;

/**
 * The {@code fieldValidation} query parameter in any case, as kube-apiserver reads it and kubectl users type it
 * ({@code strict}); anything else is a 400 naming the values.
 */
@Component
class FieldValidationParameter implements Converter<String, FieldValidation> {

    @Override
    public FieldValidation convert(String value) {
        return Arrays.stream(FieldValidation.values()).filter(v -> v.name().equalsIgnoreCase(value.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fieldValidation " + value));
    }
}

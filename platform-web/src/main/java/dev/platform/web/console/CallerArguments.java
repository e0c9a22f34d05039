package dev.platform.web.console;

import dev.platform.api.identity.Caller;
import org.springframework.core.MethodParameter;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.List;

/**
 * Hands the request's {@link Caller} to any controller method that declares one, and to every
 * console page as model attribute {@code caller} (for the header and the navigation). A handler
 * reached without a caller is a security rule missing: it fails rather than serve anonymously.
 */
@ControllerAdvice(basePackages = "dev.platform.web")
public class CallerArguments implements WebMvcConfigurer, HandlerMethodArgumentResolver {

    private final CurrentCaller current;

    public CallerArguments(CurrentCaller current) {
        this.current = current;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(this);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Caller.class;
    }

    @Override
    public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer container, NativeWebRequest request,
                                  WebDataBinderFactory binders) {
        return current.get().orElseThrow(() -> new IllegalStateException(
                "no authenticated caller for a handler that needs one: a request rule is missing"));
    }

    @ModelAttribute
    void caller(Model model) {
        current.get().ifPresent(caller -> model.addAttribute("caller", caller));
    }
}

package io.deltafunnel.camel.springboot;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.spring.boot.util.CamelPropertiesHelper;

/**
 * Copies a {@code *ComponentConfiguration}'s options onto its component. Unlike camel-spring-boot's lenient copy,
 * an option the component cannot take fails the start (naming the option) instead of being logged and dropped.
 */
final class ComponentOptions {

    /** Properties of the auto-configuration layer itself, not options of the component. */
    private static final Set<String> STARTER_ONLY = Set.of("enabled", "customizer");

    private ComponentOptions() {
    }

    static void copy(CamelContext camelContext, Object configuration, Component component) {
        Map<String, Object> options = CamelPropertiesHelper.getNonNullProperties(camelContext, configuration);
        options.keySet().removeIf(key -> STARTER_ONLY.contains(key.toLowerCase(Locale.ROOT)));
        CamelPropertiesHelper.setCamelProperties(camelContext, component, options, true);
    }
}

package io.deltafunnel.camel.springboot;

import java.util.Set;

import javax.sql.DataSource;

import org.springframework.context.ApplicationContext;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.converter.GenericConverter;

/**
 * Binds {@code camel.component.deltafunnel-mssql.data-source=#name} (or {@code #bean:name}) to the DataSource bean of
 * that name. Registered by {@link DeltaFunnelMssqlComponentAutoConfiguration} as a configuration-properties binding
 * converter. A value without {@code #} is refused (naming the property), never silently bound as null.
 */
final class DataSourceReferenceConverter implements GenericConverter {

    private final ApplicationContext applicationContext;

    DataSourceReferenceConverter(ApplicationContext applicationContext) {
        this.applicationContext = applicationContext;
    }

    @Override
    public Set<ConvertiblePair> getConvertibleTypes() {
        return Set.of(new ConvertiblePair(String.class, DataSource.class));
    }

    @Override
    public Object convert(Object source, TypeDescriptor sourceType, TypeDescriptor targetType) {
        if (source == null) {
            return null;
        }
        String ref = source.toString();
        if (!ref.startsWith("#")) {
            throw new IllegalArgumentException("camel.component.deltafunnel-mssql.data-source takes a bean reference"
                                               + " (#name or #bean:name), got '" + ref + "'");
        }
        ref = ref.startsWith("#bean:") ? ref.substring("#bean:".length()) : ref.substring(1);
        return applicationContext.getBean(ref, DataSource.class);
    }
}

package io.deltafunnel.camel;

/** Every test of {@link SchemaEvolutionRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class SchemaEvolutionDirectRouteTest extends SchemaEvolutionRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}

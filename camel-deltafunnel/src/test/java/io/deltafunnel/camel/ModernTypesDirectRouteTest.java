package io.deltafunnel.camel;

/** {@link ModernTypesRouteTest} with the direct TDS writer ({@code bulkEncoder=direct}, no fallback). */
class ModernTypesDirectRouteTest extends ModernTypesRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}

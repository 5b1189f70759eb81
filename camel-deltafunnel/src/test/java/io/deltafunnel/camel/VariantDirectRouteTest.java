package io.deltafunnel.camel;

/** {@link VariantRouteTest} with the direct TDS writer ({@code bulkEncoder=direct}, no fallback). */
class VariantDirectRouteTest extends VariantRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}

// SPDX-License-Identifier: Apache-2.0
#include "core/session/manifest_check.h"

#include "core/cel/cel.h"
#include "core/cel/derived_check.h"
#include "core/scenario/scenario.h"
#include "core/session/input_kind.h"

namespace drasim::session {

namespace {

// Compiles one selector and reports a failure at its position inside the manifest.
void compileSelector(const api::DeviceSelector& selector, const std::string& kind, const std::string& name,
    const std::string& path, Diagnostics& diags)
{
    cel::CompileError error;
    if (cel::Selector::compile(selector.expression, &error))
        return;
    SourcePos pos = selector.pos;
    // Line 1 of the expression starts at the scalar's content position; later lines of a block
    // scalar keep its indentation.
    if (pos.line > 0) {
        pos.line += error.line - 1;
        pos.column += error.column - 1;
    }
    diags.error(pos, kind, name, path, error.message);
}

void compileRequestSelectors(const api::ResourceClaimSpec& spec, const std::string& kind,
    const std::string& name, const std::string& base, Diagnostics& diags)
{
    for (size_t i = 0; i < spec.requests.size(); ++i) {
        const auto& req = spec.requests[i];
        const std::string rp = base + ".devices.requests[" + std::to_string(i) + "]";
        if (req.exactly)
            for (size_t s = 0; s < req.exactly->selectors.size(); ++s)
                compileSelector(req.exactly->selectors[s], kind, name,
                    rp + ".exactly.selectors[" + std::to_string(s) + "].cel.expression", diags);
        for (size_t f = 0; f < req.firstAvailable.size(); ++f)
            for (size_t s = 0; s < req.firstAvailable[f].spec.selectors.size(); ++s)
                compileSelector(req.firstAvailable[f].spec.selectors[s], kind, name,
                    rp + ".firstAvailable[" + std::to_string(f) + "].selectors[" + std::to_string(s)
                        + "].cel.expression",
                    diags);
    }
}

} // namespace

void compileSelectors(const api::ObjectSet& objects, Diagnostics& diags, bool listTypes)
{
    for (const auto& c : objects.deviceClasses)
        for (size_t s = 0; s < c.selectors.size(); ++s)
            compileSelector(c.selectors[s], "DeviceClass", c.meta.key(),
                "spec.selectors[" + std::to_string(s) + "].cel.expression", diags);
    for (const auto& c : objects.resourceClaims) {
        compileRequestSelectors(c.spec, "ResourceClaim", c.meta.key(), "spec", diags);
        cel::checkDerivedAttributes(c.spec, "ResourceClaim", c.meta.key(), "spec", "", listTypes, diags);
    }
    for (const auto& t : objects.resourceClaimTemplates) {
        compileRequestSelectors(t.spec, "ResourceClaimTemplate", t.meta.key(), "spec.spec", diags);
        cel::checkDerivedAttributes(
            t.spec, "ResourceClaimTemplate", t.meta.key(), "spec.spec", "", listTypes, diags);
    }
}

yamlio::LoadResult validateManifestPaths(
    const std::vector<std::string>& paths, const yamlio::LoadOptions& options)
{
    auto result = yamlio::loadPaths(paths, options);
    compileSelectors(result.objects, result.diagnostics, options.gates.enabled("DRAListTypeAttributes"));
    return result;
}

yamlio::LoadResult validateManifestText(
    std::string_view text, const std::string& fileName, const yamlio::LoadOptions& options)
{
    auto result = yamlio::loadText(text, fileName, options);
    compileSelectors(result.objects, result.diagnostics, options.gates.enabled("DRAListTypeAttributes"));
    return result;
}

yamlio::LoadResult validateText(std::string_view text, const std::string& fileName)
{
    if (detectTextKind(text) != InputKind::Scenario)
        return validateManifestText(text, fileName);
    yamlio::LoadResult result;
    scenario::parseScenario(text, fileName, result.diagnostics);
    return result;
}

} // namespace drasim::session

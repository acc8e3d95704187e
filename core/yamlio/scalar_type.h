// SPDX-License-Identifier: Apache-2.0
#pragma once

// How Kubernetes' YAML decoder (sigs.k8s.io/yaml on go-yaml v2, YAML 1.1 resolution) types a
// scalar: `yes`/`on` are booleans, `0x10` an integer, `1e3` a float, `~` null. A manifest field of
// type string given `yes` is therefore a type error, exactly as the API server reports it.

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/yamlio/lean_yaml.h"

namespace drasim::yamlio {

enum class ScalarType { Null, Bool, Int, Float, String };

ScalarType resolveScalar(std::string_view text, bool quoted, lean::Tag tag);
std::optional<bool> parseYamlBool(std::string_view text);
std::optional<int64_t> parseYamlInt(std::string_view text);
std::optional<double> parseYamlFloat(std::string_view text);
/// "string", "integer", "number", "boolean", "null" (JSON-ish names used in error messages).
const char* scalarTypeName(ScalarType t);

} // namespace drasim::yamlio

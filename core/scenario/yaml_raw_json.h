// SPDX-License-Identifier: Apache-2.0
#pragma once

// The JSON text Kubernetes' decoders hold for a YAML value they keep undecoded (a RawExtension's
// Raw, e.g. the args of a scheduler plugin without an args type): sigs.k8s.io/yaml converts the
// YAML document with YAMLToJSON, which re-encodes every value with Go's encoding/json, so two
// values have the same text exactly when they are the same data, whatever their layout.

#include <string>

#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

/// Compact JSON of the value: map keys sorted by their bytes, scalars resolved as the YAML core
/// schema reads them (yaml_tree.h), numbers and strings written as encoding/json writes them.
std::string rawJsonOf(const yamlio::YamlNode& value);

} // namespace drasim::scenario

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writes a Scenario back as a YAML document. Paths are written as they were read (relative to the
// scenario file), the workloads as their document, times in the largest exact units. The output
// is canonical: writing a scenario, reading it back and writing it again gives the same bytes.
// Comments and flow style of the original file are not kept.

#include <string>

#include "core/common/data_value.h"
#include "core/scenario/scenario.h"

namespace drasim::scenario {

/// The document as a tree (apiVersion, kind, metadata, spec), in the field order of scenario.h.
DataValue toData(const Scenario& scenario);
/// The document as YAML text.
std::string writeScenario(const Scenario& scenario);

} // namespace drasim::scenario

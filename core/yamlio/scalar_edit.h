// SPDX-License-Identifier: Apache-2.0
#pragma once

// Edits of a YAML text that keep every other byte: a scalar replaced where it is written, a map
// entry added, comments and layout untouched. For documents copied elsewhere whose paths must
// change (a study exported with its files), where writing the document anew would lose them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/yamlio/yaml_tree.h"

namespace drasim::yamlio {

/// The node at `field` under `root`: map keys joined by '.', list items as "[i]"
/// ("spec.resources[1]", "spec.workloads[0].pipeline.taskDurations.train.file"). A key may hold
/// dots itself: at a map, the longest key the field continues with wins. Null when absent.
const YamlNode* findField(const YamlNode& root, std::string_view field);

struct TextEdit
{
    size_t offset = 0;
    size_t length = 0; ///< bytes replaced (0: an insertion)
    std::string text;
};

/// Replaces the one-line scalar `node` of `text` (plain, single- or double-quoted) by `value`,
/// written plain when YAML reads it back as the same string, else double-quoted. Nullopt for
/// block scalars, scalars over several lines and tagged ones: they are not rewritten.
std::optional<TextEdit> replaceScalar(std::string_view text, const YamlNode& node, const std::string& value);

/// Adds `key: value` as the first entry of the map `node` (block or flow style).
std::optional<TextEdit> addFirstEntry(
    std::string_view text, const YamlNode& node, const std::string& key, const std::string& value);

/// `text` with the edits applied; they must not overlap.
std::string applyEdits(std::string text, std::vector<TextEdit> edits);

} // namespace drasim::yamlio

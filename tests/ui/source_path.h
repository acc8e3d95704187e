// SPDX-License-Identifier: Apache-2.0
// A file of the source tree (scenarios, resources) by its path from the root, for the UI tests.
#pragma once

#include <QString>

inline QString sourcePath(const char* rel)
{
    return QString::fromUtf8(DRASIM_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(rel);
}

/// The scenario drasim-gui opens by default.
inline QString defaultScenario()
{
    return sourcePath("scenarios/sim/default/scenario.yaml");
}

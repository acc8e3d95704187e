// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPlainTextEdit>

#include "core/api/object_set.h"

namespace drasim::ui {

/// Shows one object as the YAML drasim would write for it (read-only, monospace).
class ObjectDetailView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ObjectDetailView(QWidget* parent = nullptr);

    /// kind is one of the ObjectTreeModel kind names; index is the position in that kind's list.
    void showObject(const api::ObjectSet& objects, const QString& kind, int index);
    void showPlaceholder(const QString& text);

    /// "# Selects driver x; taints 2 device(s) of the loaded slices:" and one line per device.
    static QString taintedDevicesComment(const api::ObjectSet& objects, const api::DeviceTaintRule& rule);
};

} // namespace drasim::ui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QFutureWatcher>
#include <QWidget>

#include "core/api/object_set.h"
#include "core/session/selector_preview.h"
#include "ui/jobs/background_pool.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace drasim::ui {

class SelectorMatchModel;

/// Type a CEL device selector and see which devices of the cluster it matches and, for the
/// others, why not: the selector was false, evaluation failed (the CEL error), or it does not
/// compile (the message with a caret under its column). The core's `drasim cel` evaluation,
/// run off the UI thread a moment after typing stops.
class CelSelectorBox : public QWidget
{
    Q_OBJECT
public:
    explicit CelSelectorBox(QWidget* parent = nullptr);
    ~CelSelectorBox() override;

    void setObjects(std::shared_ptr<const api::ObjectSet> objects);
    void setExpression(const QString& expression);
    /// An expression that fits a cluster, to start from (and the box's placeholder): its first
    /// DeviceClass's selector, else a match on its first driver; one that names a vendor's
    /// attributes would be an error on every device of a cluster without them (a trace).
    static QString exampleFor(const api::ObjectSet* objects);
    QString example() const;
    QString expression() const;
    SelectorMatchModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// "3 of 8 devices match…", or the compile error with its column.
    QString summary() const;

Q_SIGNALS:
    /// The current expression was evaluated (or failed to compile); model() is up to date.
    void evaluated();

private:
    void evaluate();
    void onEvaluated();

    std::shared_ptr<const api::ObjectSet> m_objects;
    QFutureWatcher<std::shared_ptr<const session::SelectorPreview>> m_watcher;
    bool m_pending = false;
    QLineEdit* m_input = nullptr;
    QComboBox* m_show = nullptr;
    QLabel* m_summary = nullptr;
    QTimer* m_debounce = nullptr;
    SelectorMatchModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    BackgroundPool m_pool; // last: destroyed first, waiting for an evaluation in flight
};

} // namespace drasim::ui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTableView>
#include <QTreeView>

namespace drasim::ui {

/// A table that says what its emptiness means ("8,152 pods succeeded; none running or pending")
/// in the middle of its viewport while it has no rows, instead of showing a blank grid.
class EmptyTextTableView : public QTableView
{
    Q_OBJECT
public:
    explicit EmptyTextTableView(QWidget* parent = nullptr);

    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }
    /// The text shown now: emptyText() while the table has no rows, else nothing.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_emptyText;
};

/// The same for a tree (a run's pods with each PodGroup's members under its row).
class EmptyTextTreeView : public QTreeView
{
    Q_OBJECT
public:
    explicit EmptyTextTreeView(QWidget* parent = nullptr);

    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }
    /// The text shown now: emptyText() while the tree has no rows, else nothing.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_emptyText;
};

} // namespace drasim::ui

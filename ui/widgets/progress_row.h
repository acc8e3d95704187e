// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace drasim::ui {

/// The row above a page that runs a job in the background: a title taking the spare width, the
/// page's own controls, Run and Cancel, a stage label (hidden until a stage is set) and a
/// progress bar without text. The page connects the buttons and feeds the fractions its job
/// reports; the row only lays them out and keeps the bar's scale in one place.
class ProgressRow : public QWidget
{
    Q_OBJECT
public:
    explicit ProgressRow(const QString& title, QWidget* parent = nullptr);

    /// Places `control` after the title and before Run, in the order of the calls.
    void addControl(QWidget* control);
    /// Shows progress in [0, 1] (1 = done).
    void setFraction(double fraction);
    /// Names what the job is doing now ("reading the study", "cancelled").
    void setStage(const QString& stage);

    QLabel* title() const { return m_title; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }

private:
    QHBoxLayout* m_layout = nullptr;
    QLabel* m_title = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_stage = nullptr;
    QProgressBar* m_progress = nullptr;
};

} // namespace drasim::ui

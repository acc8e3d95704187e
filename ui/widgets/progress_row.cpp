// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/progress_row.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace drasim::ui {

namespace {

// Thousandths: fine enough for a bar 220 pixels wide, coarse enough that a run's many small steps
// do not repaint it each time.
constexpr int kSteps = 1000;

} // namespace

ProgressRow::ProgressRow(const QString& title, QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel(title, this);
    m_title->setTextFormat(Qt::PlainText);
    m_run = new QPushButton(tr("Run"), this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_stage = new QLabel(this);
    m_stage->hide();
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, kSteps);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(220);

    m_layout = new QHBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addWidget(m_title, 1);
    m_layout->addWidget(m_run);
    m_layout->addWidget(m_cancel);
    m_layout->addWidget(m_stage);
    m_layout->addWidget(m_progress);
}

void ProgressRow::addControl(QWidget* control)
{
    m_layout->insertWidget(m_layout->indexOf(m_run), control);
}

void ProgressRow::setFraction(double fraction)
{
    m_progress->setValue(int(fraction * kSteps + 0.5));
}

void ProgressRow::setStage(const QString& stage)
{
    m_stage->setText(stage);
    m_stage->show();
}

} // namespace drasim::ui

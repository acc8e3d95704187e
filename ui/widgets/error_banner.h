// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QLabel>

namespace drasim::ui {

/// The line above the window's content that says the input has errors. Its tint, border and mark
/// come from the palette at paint time (the Bad tone over the window colour), so it reads the same
/// on a light and on a dark palette and follows View › Theme; the text is the palette's.
class ErrorBanner : public QLabel
{
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);

    /// The background painted under the text, for the current palette.
    QColor background() const;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace drasim::ui

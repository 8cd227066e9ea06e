"""The parts screens are built from, one screen area per module: the checker's verdict (`results`), the
drill clock (`countdown`), the review rating buttons (`rating_bar`), Markdown as text (`markdown_text`),
the auto-indenting Python editor (`code_editor`),
and the mock interview's areas (`mock_clock`, `mock_setup`, `mock_drill`, `mock_question`,
`mock_scorecard`). Widgets show what they are given; the screens wire them to the core packages."""

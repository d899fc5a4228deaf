"""Code the tests share. A test imports shared helpers from here (tests.support.X), never from
another test module or a conftest: a test module is collected, not imported, and a conftest
is pytest's to load."""

"""Grading a candidate's tests: `grade(source, drill_id, framework, implementations)` runs the candidate's `test_*`
functions against right implementations (which must all pass) and against every catalogued mistake
of the drill under test (each should make some test fail), and reports which known bugs the tests
catch, which right answers they wrongly reject, and a nudge for every bug no test catches.

The candidate's test file runs in the same sandbox as any answer, once per implementation, so a test
file never sees two implementations in one process and cannot carry results from one run to another.
"""
from checker.testwriting.grade import grade

__all__ = ["grade"]

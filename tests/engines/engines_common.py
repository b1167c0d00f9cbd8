"""What the engine comparisons share: the scenario files an argument list names."""
import os


def scenario_files(args):
    """Each argument as is, or, for a folder, the .scenario files in it in name order."""
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.endswith(".scenario"):
                    yield os.path.join(a, name)
        else:
            yield a

"""The pure-Python twin of the compiled core: the same functions, answers and exceptions.

It is written to be plainly right rather than fast: it is the executable specification the
tests hold the Rust core to, and the fallback when the extension is not built.
"""

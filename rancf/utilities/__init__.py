"""The bottom layer, which every other imports: checks of user input (:mod:`.checks`), the
exception of a user's function that raised (:mod:`.errors`), the memory a process may still
allocate (:mod:`.memory`) and one buffer for a kernel's arrays (:mod:`.workspace`)."""

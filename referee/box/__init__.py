"""A group's own box: the values no source gives, asked, kept, checked and learnt from records."""

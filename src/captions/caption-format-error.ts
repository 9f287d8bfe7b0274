// The error a parser throws for text that is not the caption format it was asked to read.

export class CaptionFormatError extends Error {}

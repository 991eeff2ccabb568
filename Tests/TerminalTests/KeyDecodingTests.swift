import Testing

@testable import Terminal

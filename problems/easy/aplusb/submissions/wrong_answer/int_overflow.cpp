// The sum in a 32-bit int: wrong once it passes 2^31 - 1.
#include <iostream>

int main() {
    int a, b;
    std::cin >> a >> b;
    std::cout << a + b << "\n";
}
